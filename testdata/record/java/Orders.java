public class Orders {
    static class Item {
        final String name;
        final int qty;
        final double price;

        Item(String name, int qty, double price) {
            this.name = name;
            this.qty = qty;
            this.price = price;
        }
    }

    static double lineTotal(Item item) {
        return item.qty * item.price;
    }

    static double total(Item[] items) {
        double sum = 0;
        for (Item it : items) {
            sum += lineTotal(it);
        }
        return sum;
    }

    static int parseQty(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad quantity " + text, e);
        }
    }

    static int safeQty(String text) {
        try {
            return parseQty(text);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    static int square(int n) {
        return n * n;
    }

    static int squares(int count) {
        int acc = 0;
        for (int i = 0; i < count; i++) {
            acc += square(i);
        }
        return acc;
    }

    static void check(int[] counts) {
        if (counts[0] < 0) {
            throw new IllegalStateException("negative count " + counts[0]);
        }
    }

    public static void main(String[] args) {
        Item[] items = {new Item("pen", 2, 1.5), new Item("book", 1, 12.25)};
        System.out.println("total " + total(items));
        System.out.println("qty " + safeQty("3x"));
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        System.out.println("squares " + squares(turns) + " left " + countdown(turns));
        check(new int[] {turns - 5, 1, 4});
        System.out.println("done");
    }

    static int countdown(int n) {
        while (n > 0) {
            n--;
        }
        return n;
    }
}
