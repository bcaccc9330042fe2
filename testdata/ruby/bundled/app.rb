require "greeter"

name = "ada"
message = Greeter.greet(name)
puts message
puts "gem from #{$LOADED_FEATURES.grep(/greeter/).first}"
