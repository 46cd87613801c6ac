// Training in turns of a worker's event loop, for the trainers' worker scripts (np-lm-worker.js,
// np-train-worker.js), which load it with importScripts. Each turn trains one slice; between two
// turns the worker takes its messages, so a pause arrives within a slice. A MessageChannel
// message runs as soon as the worker is free (setTimeout would add its 4 ms clamp to every turn).
//
//   const nextTurn = workInTurns(slice)   slice() trains and posts its replies; it returns
//                                         whether another turn is wanted
//   nextTurn()                            asks for a turn (once, however often it is asked)

// eslint-disable-next-line no-unused-vars
function workInTurns(slice) {
  const channel = new MessageChannel();
  let scheduled = false;
  channel.port1.onmessage = () => {
    scheduled = false;
    if (slice()) nextTurn();
  };
  function nextTurn() {
    if (scheduled) return;
    scheduled = true;
    channel.port2.postMessage(0);
  }
  return nextTurn;
}
