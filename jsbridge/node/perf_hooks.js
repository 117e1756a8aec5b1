// node:perf_hooks: performance.now and user-timing marks and measures.
(function (native) {
  'use strict';
  const entries = [];
  class PerformanceEntry {
    constructor(name, entryType, startTime, duration, detail) {
      this.name = name; this.entryType = entryType; this.startTime = startTime; this.duration = duration; this.detail = detail === undefined ? null : detail;
    }
    toJSON() { return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.detail }; }
  }
  class PerformanceMark extends PerformanceEntry {}
  class PerformanceMeasure extends PerformanceEntry {}
  const startOf = (m) => {
    if (m === undefined) return 0;
    if (typeof m === 'number') return m;
    const e = entries.filter((x) => x.entryType === 'mark' && x.name === m).pop();
    if (!e) { const err = new SyntaxError('The "' + m + '" performance mark has not been set'); err.code = 'ERR_INVALID_PERFORMANCE_MARK'; throw err; }
    return e.startTime;
  };
  const performance = {
    timeOrigin: native.timeOrigin,
    now: () => native.now(),
    mark(name, options) {
      const m = new PerformanceMark(String(name), 'mark', options && options.startTime !== undefined ? options.startTime : native.now(), 0, options && options.detail);
      entries.push(m);
      return m;
    },
    measure(name, start, end) {
      let detail;
      if (start && typeof start === 'object') { detail = start.detail; end = start.end; start = start.start; }
      const s = startOf(start);
      const e = end === undefined ? native.now() : startOf(end);
      const m = new PerformanceMeasure(String(name), 'measure', s, e - s, detail);
      entries.push(m);
      return m;
    },
    getEntries: () => entries.slice(),
    getEntriesByName: (n, t) => entries.filter((e) => e.name === n && (t === undefined || e.entryType === t)),
    getEntriesByType: (t) => entries.filter((e) => e.entryType === t),
    clearMarks(n) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && (n === undefined || entries[i].name === n)) entries.splice(i, 1); },
    clearMeasures(n) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'measure' && (n === undefined || entries[i].name === n)) entries.splice(i, 1); },
    timerify: (fn) => fn,
    eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }),
    toJSON() { return { timeOrigin: this.timeOrigin }; },
  };
  class PerformanceObserver {
    constructor(cb) { this.cb = cb; }
    observe() {}
    disconnect() {}
  }
  PerformanceObserver.supportedEntryTypes = ['mark', 'measure'];
  return {
    performance, PerformanceEntry, PerformanceMark, PerformanceMeasure, PerformanceObserver,
    monitorEventLoopDelay: () => ({ enable() {}, disable() {}, reset() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0, percentiles: new Map() }),
    createHistogram: () => ({ record() {}, recordDelta() {}, reset() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0, count: 0, percentiles: new Map() }),
    constants: {},
  };
});
