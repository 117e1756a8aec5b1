@flow
Feature: Flows: the catalogue, called by its file

  Scenario: Open the catalogue
    Given I open "/catalogue.html"
    Then I expect the text of "h1" to equal "Catalogue"
    And I remember the count of "Products" as "products"
