public class Sleepy {
    public static void main(String[] args) throws InterruptedException {
        int naps = 0;
        System.out.println("sleepy started");
        while (true) {
            Thread.sleep(50);
            naps++;
        }
    }
}
