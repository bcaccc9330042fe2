public class Calls {
    static int work(int i) {
        return i % 7;
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long start = System.nanoTime();
        int acc = 0;
        for (int i = 0; i < n; i++) {
            acc += work(i);
        }
        long loop = System.nanoTime() - start;
        System.out.println("calls " + n + " acc " + acc + " loopns " + loop);
    }
}
