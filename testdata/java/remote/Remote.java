// Debugged from another root: the tests compile and run it where its files
// are at /mnt/app, with Limit.java, which only that copy has.
public class Remote {
    static void check(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative: " + n);
        }
    }

    static int total(int[] items) {
        int s = 0;
        for (int x : items) {
            s += x;
        }
        return s;
    }

    public static void main(String[] args) {
        try {
            check(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getMessage());
        }
        int t = total(new int[] {1, 2, 3});
        System.out.println("limit " + Limit.limit(t));
    }
}
