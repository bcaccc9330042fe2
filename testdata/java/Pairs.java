// Two top-level classes, main in the second (see README.md): `java
// Pairs.java` alone would run Pair and find no main.
class Pair {
    final int left, right;

    Pair(int left, int right) {
        this.left = left;
        this.right = right;
    }

    int sum() {
        return left + right;
    }
}

public class Pairs {
    public static void main(String[] args) {
        Pair p = new Pair(3, 4);
        int total = p.sum();
        System.out.println("pair total " + total);
    }
}
