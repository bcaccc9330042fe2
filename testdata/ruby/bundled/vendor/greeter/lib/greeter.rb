module Greeter
  def self.greet(name)
    "hello, #{name}"
  end
end
