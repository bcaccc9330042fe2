console.log("pid", process.pid);
const n = 1;
console.log("after", n);
