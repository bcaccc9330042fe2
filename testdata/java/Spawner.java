import java.io.BufferedReader;
import java.io.InputStreamReader;

// Starts a child process with ProcessBuilder and reads its answer: the
// child must run while the JVM is debugged.
public class Spawner {
    public static void main(String[] args) throws Exception {
        Process child = new ProcessBuilder("sh", "-c", "echo child says 42").start();
        String got = new BufferedReader(new InputStreamReader(child.getInputStream())).readLine();
        int code = child.waitFor();
        System.out.println("child answered " + got + " with " + code);
    }
}
