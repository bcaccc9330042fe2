"""The program's own TCP connection, which must keep Nagle's algorithm."""
import socket

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 0))
listener.listen(1)
client = socket.create_connection(listener.getsockname())
server, _ = listener.accept()
client.sendall(b"ping")
data = server.recv(4)
print("received", data.decode())
client.close()
server.close()
listener.close()
