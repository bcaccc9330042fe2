# The conformance table's Ruby program (internal/server/conformance_test.go):
# weigh called in a loop, an exception chosen by "raise", output and exit
# code 3 (an attach finds it held at its first line by rdbg --open).
def weigh(item, factor)
  scaled = item * factor
  scaled
end

def main(mode)
  total = 0
  4.times do |i|
    total += weigh(i, 3)
  end
  raise ArgumentError, "bad mode #{mode}" if mode == "raise"

  puts "conform total #{total}"
  3
end

exit main(ARGV[0] || "")
