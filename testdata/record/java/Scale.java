public class Scale {
    static int scale(int x, int factor) {
        int y = x * factor;
        return y;
    }

    public static void main(String[] args) {
        int sum = 0;
        for (int i = 1; i <= 4; i++) {
            sum += scale(i, i + 10);
        }
        System.out.println("sum " + sum);
    }
}
