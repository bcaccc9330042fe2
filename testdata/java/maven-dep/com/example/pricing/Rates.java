package com.example.pricing;

public final class Rates {
    private Rates() {}

    public static int withTax(int cents) {
        return cents + cents / 5;
    }
}
