@builtin
Feature: Built-in steps: collections, repeating until, downloads, intercepted responses, soft assertions
  The catalogue (/catalogue.html) lists products; its page objects are in
  pages/catalogue.yaml, some of them parameterised ("Product (Milk)"), and
  one in TypeScript (features/support/pages.ts: "Price (Bread)").

  Background:
    Given I open "/catalogue.html"

  Scenario: A condition or a property of every element, or of any
    Then I expect every element of "Products" to be visible
    And I expect every element of "#products h3" not to be empty
    And I expect any element of "#products button" to be disabled
    And I expect any element of "#products button" not to be disabled
    And I expect every value of "#products input.qty" to be at least 0
    And I expect any value of "#products input.qty" to equal "2"
    And I expect every value of "#products input.qty" not to equal "5"
    And I expect every attribute "data-sku" of "Products" to match "^F-\d$"
    And I expect any attribute "class" of "Products" to contain "sold-out"
    And I expect every attribute "data-sku" of "Products" not to equal "X-1"
    And I expect every CSS property "border-top-style" of "Products" to equal "solid"
    And I expect any CSS property "color" of "Products" not to equal "rgb(160, 174, 192)"
    And I expect every property "dataset.sku" of "Products" to start with "F-"
    And I expect any property "disabled" of "#products button" to equal true
    And I expect every property "dataset.name" of "Products" not to equal "Caviar"

  Scenario: Parameterised page objects
    Then I expect the text of "Product (Milk)" to contain "£1.20"
    And I expect "catalogue > Product (Honey)" to have the class "sold-out"
    And I expect the text of "Price (Bread)" to equal "£2.50"
    And I expect the value of "Quantity (Eggs)" to equal "2"
    When I fill "Quantity (Eggs)" with "3"
    And I click "Basket button (Eggs)"
    Then I expect the text of "Message (Added 3 × Eggs)" to equal "Added 3 × Eggs"
    And I expect "Basket button (Honey)" to be disabled

  Scenario: Repeating an action until a condition holds
    When I click "#check-stock" until I expect the text of "#stock" to equal "In stock"
    And I reload the page until the text of "#report-status" to contain "ready"
    Then I expect the text of "#report-status" to equal "The report is ready"

  Scenario: Saving a download
    When I click "#export" and save the download to "downloads/products.csv"
    Then I expect "$download.name" to equal "products.csv"
    And I expect "$download.path" to equal "downloads/products.csv"
    And I expect the content of the file "downloads/products.csv" to contain "F-1,Milk,1.20"
    And I expect the content of the file "downloads/products.csv" not to contain "Caviar"
    When I click 'role=button[name="Download the price list"]' and save the download to "downloads/price-list.txt"
    Then I expect the content of the file "downloads/price-list.txt" to contain "Bread: £2.50"

  Scenario: Waiting for a response of the page while acting
    When I intercept "**/api/basket" as "basket"
    And I click "Basket button (Eggs)"
    And I wait for the "basket" response
    Then I expect the "basket" response status to equal 201
    And I expect the "basket" response JSON to match:
      """json
      { "sku": "F-3", "name": "Eggs", "quantity": 2, "price": "#number? _ > 3" }
      """
    And I expect "$basket.body.quantity" to equal 2
    When I click "Basket button (Milk)" and wait for the response to "/api/basket"
    Then I expect the response field "name" to equal "Milk"
    And I expect the text of "#basket" to equal "The basket has 3 items"

  Scenario: Soft assertions: every check runs
    Then I softly expect the text of "h1" to equal "Catalogue"
    And I softly expect the count of "Products" to equal 4
    And I expect the text of "#basket" to equal "The basket is empty"
