// First paint of the graph after navigation: read by the browser tests and the benchmark.

window.kbxTimings = window.kbxTimings || {};

export function markFirstPaint() {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (window.kbxTimings.firstGraphPaint === undefined) {
      window.kbxTimings.firstGraphPaint = performance.now();
    }
  }));
}
