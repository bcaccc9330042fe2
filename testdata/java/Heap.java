// A heap whose array is read through the object that holds it (see
// README.md): trace rows show the array's length in the object's preview.
public class Heap {
    int[] arr = new int[4];
    int size;

    void add(int v) {
        if (size == arr.length) {
            arr = java.util.Arrays.copyOf(arr, size * 2);
        }
        arr[size++] = v;
    }

    public static void main(String[] args) {
        Heap h = new Heap();
        for (int v = 1; v <= 5; v++) {
            h.add(v);
        }
        System.out.println("size " + h.size);
    }
}
