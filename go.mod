module github.com/mcp-debugger/mcp-debugger

go 1.26

require (
	github.com/google/go-dap v0.12.0 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
)
