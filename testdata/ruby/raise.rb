# An uncaught exception (see README.md).
def check(order)
  raise ArgumentError, "bad order #{order}" if order > 2
  order
end

[1, 2, 3].each do |o|
  puts "checking #{o}"
  check(o)
end
