public class Hello {
    public static void main(String[] args) {
        int count = 3;
        String word = "hi";
        for (int i = 0; i < count; i++) {
            System.out.println(word + " " + i);
        }
        System.err.println("to stderr");
    }
}
