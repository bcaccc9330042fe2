// Two threads take the same two monitors in opposite orders and hang,
// each holding the one the other waits for; main waits for both.
public class LockOrder {
    static final Object savings = new Object();
    static final Object checking = new Object();

    static void transfer(Object first, Object second, java.util.concurrent.CountDownLatch bothHold) throws InterruptedException {
        synchronized (first) {
            bothHold.countDown();
            bothHold.await(); // both threads hold their first monitor now
            synchronized (second) {
                System.out.println("moved");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        java.util.concurrent.CountDownLatch bothHold = new java.util.concurrent.CountDownLatch(2);
        Thread toChecking = new Thread(() -> run(savings, checking, bothHold), "to-checking");
        Thread toSavings = new Thread(() -> run(checking, savings, bothHold), "to-savings");
        toChecking.start();
        toSavings.start();
        System.out.println("transferring");
        toChecking.join();
        toSavings.join();
    }

    static void run(Object first, Object second, java.util.concurrent.CountDownLatch bothHold) {
        try {
            transfer(first, second, bothHold);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
