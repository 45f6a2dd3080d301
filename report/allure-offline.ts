/**
 * Keeps the single-file Allure report offline. Allure's Awesome plugin (3.x) writes a Google Tag Manager script into
 * every report it builds, so a report opened on a machine with network access would tell a third party that a
 * conformance run of this deployment was viewed (its report UUID and Allure version). A report of a run against shared
 * staging stays on the reader's machine: this removes the external script tag and leaves the plugin's local `gtag` stub
 * (a function that only appends to an array in the page), which the report's own code may still call.
 */

/** The external analytics script as the Awesome plugin writes it (any tag ID). */
const ANALYTICS_SCRIPT = /<script async src="https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=[^"]*"><\/script>/g;

/**
 * `html` without the analytics script tags, and how many it removed (0 when a future Allure version writes none, or
 * writes it differently: the browser self-test then sees the request).
 */
export function withoutAnalytics(html: string): { html: string; removed: number } {
  let removed = 0;
  const cleaned = html.replace(ANALYTICS_SCRIPT, () => {
    removed++;
    return '';
  });
  return { html: cleaned, removed };
}
