# Test program for attaching to a running Ruby program (see README.md).
$stdout.sync = true
puts "spinning"
ticks = 0
while ticks < 1200
  sleep 0.05
  ticks += 1
end
puts "gave up waiting after #{ticks} ticks"
