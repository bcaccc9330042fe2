package demo

fun weigh(item: Int, factor: Int): Int {
    val scaled = item * factor
    return scaled
}

fun main() {
    val names = listOf("ada", "bob")
    var total = 0
    for (i in 1..3) {
        total += weigh(i, 10)
        println("item $i total $total")
    }
    println("done ${names.size}")
}
