// Many lines on both streams, for output with no line lost (see README.md).
'use strict';

for (let i = 1; i <= 200; i++) {
  console.log(`out ${i}`);
  console.error(`err ${i}`);
}
process.stdout.write('no newline at the end');
