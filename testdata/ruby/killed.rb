puts "pid #{Process.pid}"
$stdout.flush
n = 1
puts "after #{n}"
