@builtin
Feature: Built-in steps: reusable flows
  A flow is a scenario tagged @flow (flows/login.feature), called by its
  name, or a feature file, called by its path; its steps run in the calling
  scenario, and what it remembers is the caller's.

  Scenario: Calling a flow by its name, with arguments
    When I call "Log in in the browser" with:
      | user     | demo   |
      | password | secret |
    Then I expect "$greeting" to equal "Welcome, demo!"
    And I expect the page to contain the text "Welcome, demo!"

  Scenario: Calling a feature file
    When I call "flows/open-the-catalogue.feature"
    Then I expect "$products" to equal 4
    And I expect the URL path to equal "/catalogue.html"

  Scenario: A flow that calls flows (a path relative to the flow's own file)
    Given I remember the values:
      | user     | demo   |
      | password | secret |
    When I call "Log in and open the catalogue"
    Then I expect "$greeting" to equal "Welcome, demo!"
    And I expect "$products" to equal 4
