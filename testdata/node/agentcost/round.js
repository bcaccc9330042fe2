// Rounds a decimal held as an array of digits to dp decimal places. The
// branch for a round-up that carries into a new leading digit keeps one
// digit too few (bignumber.js's bug: a branch that stores too few digits).
// 9.996 to 2 places should be 10.00; it prints 10.0.

function roundDigits(digits, intLength, dp) {
  const keep = intLength + dp;
  const out = digits.slice(0, keep);
  if (digits[keep] >= 5) {
    let i = keep - 1;
    while (i >= 0 && out[i] === 9) {
      out[i] = 0;
      i--;
    }
    if (i < 0) {
      out.unshift(1);
      intLength++;
      return { digits: out.slice(0, keep), intLength };
    }
    out[i]++;
  }
  return { digits: out, intLength };
}

function format(value, dp) {
  const text = String(value);
  const [int, frac = ""] = text.split(".");
  const digits = (int + frac).split("").map(Number);
  const r = roundDigits(digits, int.length, dp);
  const s = r.digits.join("");
  return s.slice(0, r.intLength) + "." + s.slice(r.intLength);
}

module.exports = { format };

if (require.main === module) {
  const got = format(9.996, 2);
  if (got !== "10.00") {
    throw new Error(`format(9.996, 2) is ${got}, not 10.00`);
  }
  console.log(got);
}
