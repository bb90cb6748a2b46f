/**
 * The seeded data generator's entry point; the generator itself lives in `./seed/`, one module per
 * concern (vocabulary, helpers, and one per record family).
 */
export {
  type GenerateStateOptions,
  generateLazyState,
  generateSceneState,
  generateState,
  type LazyState,
  lazyStateSteps,
  sceneStateSteps,
  seedProgressTotal,
} from './seed/index.js';
