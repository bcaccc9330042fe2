package com.example.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LegacyCheckoutTest {
    @Test
    public void taxesNothingFree() {
        int taxed = Checkout.total(new int[] {0, 5});
        assertEquals("free and five", 5, taxed);
    }
}
