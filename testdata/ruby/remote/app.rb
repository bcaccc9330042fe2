# Debugged from another root: the tests run it where its files are at
# /mnt/app, with remote_only.rb, which only that copy has.
require_relative 'remote_only'

def total(items)
  s = 0
  items.each do |x|
    s += x
  end
  s
end

t = total([1, 2, 3])
puts "total #{t}"
check(t)
