/**
 * Module hooks (`module.register`) of P6's measuring process: they report the URL of every module
 * loaded, so that the benchmark counts exactly the chunks a first call loads.
 */
let port;

/** @param {{ port: import('node:worker_threads').MessagePort }} data */
export function initialize(data) {
  port = data.port;
}

/**
 * @param {string} url
 * @param {object} context
 * @param {(url: string, context: object) => Promise<unknown>} nextLoad
 */
export async function load(url, context, nextLoad) {
  port?.postMessage(url);
  return nextLoad(url, context);
}
