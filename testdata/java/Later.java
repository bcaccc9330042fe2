import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Later {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        int rounds = 0;
        while (in.readLine() != null) {
            rounds++;
            System.out.println("weighed " + Worker.weigh(rounds, 10));
        }
    }
}

class Worker {
    static int weigh(int item, int factor) {
        int scaled = item * factor;
        return scaled;
    }
}
