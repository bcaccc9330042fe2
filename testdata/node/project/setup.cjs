// Preloaded by the package's test script (see ../README.md): the tests
// read the rate it sets.
globalThis.rate = 3;
