import java.util.ArrayList;
import java.util.List;

public class Kinds {
    interface Named { String name(); }

    interface Titled extends Named {}

    static class Book implements Titled {
        public String name() { return "book"; }
    }

    public static void main(String[] args) {
        Named named = new Book();
        List<String> words = new ArrayList<>();
        Object nothing = null;
        System.out.println(named.name() + " " + words.size() + " " + nothing);
    }
}
