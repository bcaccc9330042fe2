# Reads its standard input (see README.md).
lines = $stdin.read.split("\n")
puts "read #{lines.size} lines, first #{lines.first || 'none'}"
