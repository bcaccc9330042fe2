public class Swap {
    static int value() {
        return 42;
    }

    public static void main(String[] args) {
        for (int round = 1; round <= 2; round++) {
            int got = value();
            System.out.println("round " + round + " value " + got);
        }
    }

    static class Unused {
    }
}
