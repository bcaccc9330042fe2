// Forks itself once as a child, which answers a message and exits.
const { fork } = require('child_process');

if (process.argv[2] === 'child') {
  process.on('message', (n) => process.send(n * n));
} else {
  const child = fork(__filename, ['child']);
  child.on('message', (got) => {
    child.disconnect();
    console.log('child answered', got);
  });
  child.send(7);
}
