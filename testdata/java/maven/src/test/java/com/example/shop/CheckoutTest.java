package com.example.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CheckoutTest {
    @Test
    void taxesOnePrice() {
        assertEquals(120, Checkout.total(new int[] {100}));
    }

    @Test
    void taxesTwoPrices() {
        int[] prices = {100, 250};
        int taxed = Checkout.total(prices);
        assertEquals(400, taxed, "two prices with tax");
    }
}
