// node:worker_threads: the VM is the main and only thread.
(function () {
  'use strict';
  class Worker {
    constructor() {
      const e = new Error('worker_threads.Worker is not available in ferridriver (one JavaScript VM per worker, no threads)');
      e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
      throw e;
    }
  }
  class MessageChannel {
    constructor() { this.port1 = new EventTarget(); this.port2 = new EventTarget(); }
  }
  return { isMainThread: true, parentPort: null, workerData: null, threadId: 0, resourceLimits: {}, Worker, MessageChannel, SHARE_ENV: Symbol('nodejs.worker_threads.SHARE_ENV') };
});
