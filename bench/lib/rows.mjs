/**
 * A row of the report: one figure, how it was obtained, its goal and whether the goal is met. A slow
 * figure never fails the benchmark; a row that could not be measured (`figure: null`) does.
 */

/**
 * @typedef {object} Goal
 * @property {'<=' | '>='} op
 * @property {number} value in the row's unit
 * @property {string} text as printed, like `<= 1.25x`
 */

/**
 * @typedef {object} Row
 * @property {string} id the benchmark, like `P1`
 * @property {string} what
 * @property {number | null} figure the headline number in `unit` (a ratio for ratio rows)
 * @property {string} unit
 * @property {string} text the figure as printed, with its baseline
 * @property {Goal | undefined} goal
 * @property {boolean | null} met null without a goal or a figure
 * @property {Record<string, unknown>} [details] raw numbers for the JSON file
 * @property {string} [error] why there is no figure
 * @property {'cpu'} [stable] a CPU-time ratio: held to the method's goal (issue 25) of staying within
 *   ±10% of its median over consecutive runs (`--runs`); throughput and wall-time ratios are not
 */

/**
 * @param {Omit<Row, 'met'>} row
 * @returns {Row}
 */
export function row(row) {
  const { goal, figure } = row;
  let met = null;
  if (goal !== undefined && typeof figure === 'number' && Number.isFinite(figure)) {
    met = goal.op === '<=' ? figure <= goal.value : figure >= goal.value;
  }
  return { ...row, met };
}

/**
 * A row that could not be measured.
 * @param {string} id
 * @param {string} what
 * @param {unknown} error
 * @param {Goal} [goal]
 * @returns {Row}
 */
export function failed(id, what, error, goal) {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id,
    what,
    figure: null,
    unit: '',
    text: `error: ${message.split('\n')[0]}`,
    goal,
    met: null,
    error: message,
  };
}

/**
 * @param {number} value
 * @param {string} [unit]
 * @returns {Goal}
 */
export const atMost = (value, unit = '') => ({ op: '<=', value, text: `<= ${value}${unit}` });
/**
 * @param {number} value
 * @param {string} [unit]
 * @returns {Goal}
 */
export const atLeast = (value, unit = '') => ({ op: '>=', value, text: `>= ${value}${unit}` });
