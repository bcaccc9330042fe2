// Asks for a name on its standard input (see README.md): without input,
// Scanner.nextLine throws NoSuchElementException "No line found".
import java.util.Scanner;

public class Ask {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String name = in.nextLine();
        System.out.println("hello " + name);
    }
}
