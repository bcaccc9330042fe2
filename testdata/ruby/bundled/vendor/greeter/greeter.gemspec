Gem::Specification.new do |s|
  s.name = "greeter"
  s.version = "0.1.0"
  s.summary = "A gem only this project's bundle provides (mcp-debugger's tests)"
  s.authors = ["mcp-debugger"]
  s.files = ["lib/greeter.rb"]
end
