public class Overloads {
    public static void main(String[] args) throws InterruptedException {
        System.out.println("overloads started");
        Thread.sleep(args.length > 0 ? Long.parseLong(args[0]) : 0);
        int a = compute(3);
        String s = compute("hi");
        String g = helper();
        System.out.println(a + " " + s + " " + g);
    }

    static int compute(int x) {
        int doubled = x * 2;
        return doubled;
    }

    static String compute(String s) {
        String up = s.toUpperCase();
        return up;
    }

    static String helper() {
        String msg = "helped";
        return msg;
    }
}
