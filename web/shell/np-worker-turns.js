// A trainer's loop in a worker, for the trainers' worker scripts (np-lm-worker.js,
// np-train-worker.js), which load it with importScripts. A message goes to the trainer at once;
// while the trainer runs, each turn of the worker's event loop trains one slice, so a pause
// arrives within a slice. A trainer that keeps a pace says how long until its next step is due,
// and the loop sleeps that long (a timer); otherwise the next turn is a MessageChannel message,
// which runs as soon as the worker is free (setTimeout would add its 4 ms clamp to every turn).
//
//   const loop = trainerLoop(current, slice, post, wait)
//     current()          the trainer ({handle, running}), or null while it loads
//     slice(trainer)     trains one slice; returns its replies
//     post(reply)        sends one reply to the page
//     wait(trainer)      optional: ms until the trainer's next step is due (0: now)
//   loop.handle(message)   the trainer's replies to a message, posted; training goes on if it runs

// eslint-disable-next-line no-unused-vars
function trainerLoop(current, slice, post, wait = () => 0) {
  const channel = new MessageChannel();
  let scheduled = false;
  const running = () => { const trainer = current(); return !!trainer && trainer.running(); };
  function schedule() {
    if (scheduled || !running()) return;
    scheduled = true;
    const ms = wait(current());
    if (ms > 0) setTimeout(turn, Math.ceil(ms));   // timers count whole ms: woken early, a turn finds nothing due
    else channel.port2.postMessage(0);
  }
  function turn() {
    scheduled = false;
    if (!running()) return;
    for (const reply of slice(current())) post(reply);
    schedule();
  }
  channel.port1.onmessage = turn;
  return {
    handle(message) {
      for (const reply of current().handle(message)) post(reply);
      schedule();
    },
  };
}
