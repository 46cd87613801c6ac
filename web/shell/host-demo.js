// host-demo.html: what a course site's own code would do with the lesson's statements
// (here, show them in the console). A file of its own so the page works under a strict CSP.
addEventListener('neuralpath:answered', e => console.log('xAPI statement', e.detail.statement));
