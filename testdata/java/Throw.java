public class Throw {
    static int check(int order) {
        if (order > 2) {
            throw new IllegalStateException("bad order " + order);
        }
        return order;
    }

    public static void main(String[] args) {
        for (int order = 1; order < 5; order++) {
            System.out.println("checked " + check(order));
        }
    }
}
