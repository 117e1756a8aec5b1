Feature: Logging in
  Built-in steps only: no step definition is written for this feature.
  `ferridriver steps` lists every step there is. Steps that act on an
  element take its name: pages/login.yaml names the login page's elements.

  Scenario: A known user logs in
    Given I open "/login"
    When I fill "Username" with "demo"
    And I fill "Password" with "secret"
    And I click "Log in"
    Then I expect the URL to end with "/welcome"
    And I expect the text of "Heading" to equal "Welcome, demo!"
