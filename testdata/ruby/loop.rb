# Test program for the Ruby integration tests (see README.md for the
# lines they rely on). Do not move lines without updating the README.
def weigh(item, factor)
  scaled = item * factor
  label = "w#{scaled}"
  label
end

total = 0
labels = []
(1..5).each do |i|
  w = weigh(i, 10)
  labels << w
  total += i
  puts "item #{i} total #{total}"
end
$stderr.puts "done with #{labels.size} items"
exit 3
