public class Caught {
    public static void main(String[] args) {
        int parsed = -1;
        try {
            parsed = Integer.parseInt("4x");
        } catch (NumberFormatException e) {
            System.out.println("caught " + e.getMessage());
        }
        System.out.println("parsed " + parsed);
    }
}
