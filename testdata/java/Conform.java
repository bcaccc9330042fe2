// The conformance table's Java program (internal/server/conformance_test.go):
// weigh called in a loop, an exception chosen by "raise", a wait for an
// attach chosen by "wait", output and exit code 3.
public class Conform {
    static int weigh(int item, int factor) {
        int scaled = item * factor;
        return scaled;
    }

    public static void main(String[] args) throws InterruptedException {
        String mode = args.length > 0 ? args[0] : "";
        int total = 0;
        for (int i = 0; i < 4; i++) {
            total += weigh(i, 3);
        }
        if (mode.equals("raise")) {
            throw new IllegalStateException("bad mode " + mode);
        }
        if (mode.equals("wait")) {
            System.out.println("ready");
            while (total >= 0) {
                total += weigh(1, 1);
                Thread.sleep(10);
            }
        }
        System.out.println("conform total " + total);
        System.exit(3);
    }
}
