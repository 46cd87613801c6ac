// A trainer's loop in a worker, for the trainers' worker scripts (np-lm-worker.js,
// np-train-worker.js), which load it with importScripts. A message goes to the trainer at once;
// while the trainer runs, each turn of the worker's event loop trains one slice, so a pause
// arrives within a slice. A MessageChannel message runs as soon as the worker is free
// (setTimeout would add its 4 ms clamp to every turn).
//
//   const loop = trainerLoop(current, slice, post)
//     current()          the trainer ({handle, running}), or null while it loads
//     slice(trainer)     trains one slice; returns its replies
//     post(reply)        sends one reply to the page
//   loop.handle(message)   the trainer's replies to a message, posted; training goes on if it runs

// eslint-disable-next-line no-unused-vars
function trainerLoop(current, slice, post) {
  const channel = new MessageChannel();
  let scheduled = false;
  const running = () => { const trainer = current(); return !!trainer && trainer.running(); };
  function schedule() {
    if (scheduled || !running()) return;
    scheduled = true;
    channel.port2.postMessage(0);
  }
  channel.port1.onmessage = () => {
    scheduled = false;
    if (!running()) return;
    for (const reply of slice(current())) post(reply);
    schedule();
  };
  return {
    handle(message) {
      for (const reply of current().handle(message)) post(reply);
      schedule();
    },
  };
}
