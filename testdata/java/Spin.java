public class Spin {
    static int spin() {
        while (true) {
        }
    }

    public static void main(String[] args) {
        for (int i = 0; i < 3; i++) {
            System.out.println("turn " + i);
        }
    }
}
