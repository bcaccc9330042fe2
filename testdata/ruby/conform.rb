# The conformance table's Ruby program (internal/server/conformance_test.go):
# weigh called in a loop, an exception chosen by "raise", a wait for an
# attach chosen by "wait", output and exit code 3.
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
  if mode == "wait"
    $stdout.puts "ready"
    $stdout.flush
    while total >= 0
      total += weigh(1, 1)
      sleep 0.01
    end
  end
  puts "conform total #{total}"
  3
end

exit main(ARGV[0] || "")
