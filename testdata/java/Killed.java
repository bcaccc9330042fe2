public class Killed {
    public static void main(String[] args) {
        System.out.println("pid " + ProcessHandle.current().pid());
        int n = 1;
        System.out.println("after " + n);
    }
}
