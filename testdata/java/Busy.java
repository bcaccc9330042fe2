public class Busy {
    public static void main(String[] args) {
        long spins = 0;
        System.out.println("busy started");
        while (true) {
            spins++;
        }
    }
}
