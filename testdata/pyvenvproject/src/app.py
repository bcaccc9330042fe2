import sys

import greeting

message = greeting.greet("venv")
print("interpreter", sys.executable)
print(message)
